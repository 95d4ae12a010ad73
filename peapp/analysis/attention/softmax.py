"""Row softmax into a reused buffer, and the log-sum-exp and weights built on it.

``torch._softmax(x, dim, half_to_float, out=)`` is the one fused softmax that writes into an
existing tensor (the public ``torch.softmax`` has no ``out``): the block computations reuse one
buffer per worker block after block.  It is private API, so it is used in one place,
:func:`softmax_into`, checked once against the public ``torch.softmax``; if it is missing, or
rejects the call, the public function is used (same values, one temporary per block).
"""

from __future__ import annotations

import torch

# A finite "minus infinity" for masked logits: exp gives 0 and 0·MASKED stays 0.
MASKED = -1e30


def _public_softmax_into(logits: torch.Tensor, out: torch.Tensor) -> torch.Tensor:
    return out.copy_(torch.softmax(logits, -1))


def _private_softmax_into(logits: torch.Tensor, out: torch.Tensor) -> torch.Tensor:
    return torch._softmax(logits, -1, False, out=out)


def _private_softmax_works() -> bool:
    """Whether ``torch._softmax(..., out=)`` exists here and agrees with ``torch.softmax``."""
    if not hasattr(torch, "_softmax"):
        return False
    probe = torch.tensor([[0.5, -1.0, 2.0, MASKED], [MASKED, MASKED, 0.0, 1.0]])
    out = torch.empty_like(probe)
    try:
        got = _private_softmax_into(probe, out)
    except (TypeError, RuntimeError):
        return False
    return got.data_ptr() == out.data_ptr() and torch.allclose(got, torch.softmax(probe, -1), rtol=0, atol=1e-7)


USE_PRIVATE_SOFTMAX = _private_softmax_works()


def softmax_into(logits: torch.Tensor, out: torch.Tensor) -> torch.Tensor:
    """Softmax over the last axis of ``logits`` [B, K] written into ``out`` (same shape); returns ``out``.

    ``logits`` may be a non-contiguous view (a column slice of a block); ``out`` is a buffer view
    of the workspace."""
    if USE_PRIVATE_SOFTMAX:
        return _private_softmax_into(logits, out)
    return _public_softmax_into(logits, out)


def row_lse(logits: torch.Tensor, probs_out: torch.Tensor) -> torch.Tensor:
    """log Σ exp over each row of ``logits`` [B, K], via the fused softmax: at a row's largest
    logit m the weight is exp(m − lse), so lse = m − log(max weight) — one exp pass, not two, and
    no temporaries (``probs_out`` is reused).  A fully masked row gives ≈ MASKED, not −inf."""
    probs = softmax_into(logits, probs_out)
    return logits.amax(-1).sub_(probs.amax(-1).log_())


def weights(logits: torch.Tensor, lse: torch.Tensor, out: torch.Tensor) -> torch.Tensor:
    """exp(logits − lse) for a block [B, K] of rows whose log-sum-exp over all keys is ``lse`` [B].

    The block's fused softmax times exp(block lse − lse) per row: exp_ on underflowing inputs
    (masked −1e30, ALiBi's far keys, results in the denormal range) measured 10–30× slower than on
    ordinary ones, and the softmax kernel does not have that slow path.  A fully masked row has
    block lse ≈ −1e30, so its uniform softmax is scaled by exp(−1e30 − lse) = 0."""
    if not logits.shape[-1]:
        return logits
    probs = softmax_into(logits, out)
    block_lse = logits.amax(-1).sub_(probs.amax(-1).log_())
    return probs.mul_(block_lse.sub_(lse).exp_().unsqueeze(-1))


__all__ = ["MASKED", "USE_PRIVATE_SOFTMAX", "row_lse", "softmax_into", "weights"]
