"""Attention outputs and the shuffle (permutation) test: does order reach the outputs?"""

from __future__ import annotations

import torch

from peapp.analysis.attention.model import AttentionModel, model_bytes
from peapp.analysis.attention.schemes import scheme_spec
from peapp.analysis.attention.result import EQUIVARIANCE_TOL, ShuffleResult
from peapp.analysis.attention.spec import AttentionSpec
from peapp.analysis.attention.threads import ProgressFn
from peapp.memory import ensure_fits

# Logits per stripe of attention_outputs (the shuffle test; H × rows × keys).
STRIPE_ENTRIES = 1 << 20
# The shuffle test computes full outputs (O(L²)); beyond this it uses the first tokens only.
SHUFFLE_MAX_TOKENS = 4096


def attention_outputs(spec: AttentionSpec, scheme_params: tuple = (), permutation: torch.Tensor | None = None,
                      n_tokens: int | None = None, progress: ProgressFn | None = None,
                      dtype: torch.dtype = torch.float64, device: str | torch.device = "cpu") -> torch.Tensor:
    """Attention outputs softmax(logits)·V [H, n, head_dim], tokens optionally permuted (on the CPU).

    Position stays 0 … n−1: only which token sits where changes.  Computed in stripes.
    """
    n = spec.seq_len if n_tokens is None else n_tokens
    model = AttentionModel(spec, scheme_params, dtype=dtype, permutation=permutation, n_tokens=n, with_values=True,
                           device=device)
    assert model.v is not None
    out = torch.empty(spec.n_heads, n, spec.head_dim, dtype=dtype, device=model.device)
    step = max(1, STRIPE_ENTRIES // (spec.n_heads * n))
    for lo in range(0, n, step):
        rows = torch.arange(lo, min(n, lo + step), device=model.device)
        logits, _, _ = model.logits(rows, n)
        out[:, lo:lo + len(rows)] = torch.matmul(torch.softmax(logits, dim=-1), model.v)
        if progress is not None:
            progress(min(1.0, (lo + step) / n))
    return out.cpu()


def shuffle_test(spec: AttentionSpec, scheme_params: tuple = (), progress: ProgressFn | None = None,
                 tolerance: float = EQUIVARIANCE_TOL, device: str | torch.device = "cpu") -> ShuffleResult:
    """Permutation test: shuffle the input tokens and compare outputs to the shuffled originals.

    Without position information and without a causal mask the outputs are the same permutation
    of the originals (equivariance); any position scheme, or a causal mask alone, breaks it.
    """
    n = min(spec.seq_len, SHUFFLE_MAX_TOKENS)
    ensure_fits((2 * model_bytes(spec, n, with_values=True) + STRIPE_ENTRIES * 8 * 4,), 2,
                what="the shuffle test", suggestion="use fewer heads or a smaller head_dim")
    scheme_spec(spec, scheme_params)
    perm = torch.randperm(n, generator=torch.Generator().manual_seed(spec.seed + 104729))

    def part(lo: float) -> ProgressFn | None:
        if progress is None:
            return None
        report = progress
        return lambda f: report(lo + 0.5 * f)

    original = attention_outputs(spec, scheme_params, n_tokens=n, progress=part(0.0), device=device)
    shuffled = attention_outputs(spec, scheme_params, permutation=perm, n_tokens=n, progress=part(0.5), device=device)
    expected = original[:, perm]
    diff = shuffled - expected
    max_abs = float(diff.abs().max()) if diff.numel() else 0.0
    norm = expected.pow(2).sum(dim=(0, 2)).sqrt().clamp_min(1e-30)
    change = (diff.pow(2).sum(dim=(0, 2)).sqrt() / norm).to(torch.float32).numpy()
    equivariant = max_abs <= tolerance
    return ShuffleResult(spec=spec, n_tokens=n, permutation=perm.numpy(), change=change, max_abs=max_abs,
                         equivariant=equivariant)


__all__ = ["SHUFFLE_MAX_TOKENS", "STRIPE_ENTRIES", "ShuffleResult", "attention_outputs",
           "shuffle_test"]
