"""What each positional scheme does to attention: logits, position term, softmax — at any length.

A small, seeded single-layer attention is built from an :class:`AttentionSpec`
(:mod:`.model`): seeded tokens and per-head projections, and one scheme strategy
(:mod:`.schemes`): ``nope``; ``sinusoidal`` / ``learned`` added to the token vectors before
projection; ``rope`` rotating q and k (``peapp.encodings.rope``, frequencies from
``RopeSpec.inv_freq`` so every scaling variant applies); ``alibi`` (``peapp.encodings.alibi``);
``t5`` bucket bias (``peapp.encodings.relative``, seeded or trained bucket table); ``shaw``
relative keys (logit += q_i · a_clip(j−i), seeded vectors a).

Logits are q·k/√head_dim (+ bias) for every scheme (T5 folds the 1/√d into its weights; here it
is kept so schemes are comparable).  The *position term* is the part of the logits that
position contributes: the bias for ALiBi / T5, the relative-key term for Shaw, and for RoPE and
the additive schemes the logits minus the same tokens' logits without position.

The package:

* :mod:`.spec` — AttentionSpec and the names of schemes, token sources, kinds and poolings;
* :mod:`.schemes` — one strategy object per scheme (what it adds, rotates or biases);
* :mod:`.model` — the seeded model (a block source), cached one at a time;
* :mod:`.blocks` — the block machinery on plain q/k tensors (pooled map, distance profile,
  entropy, received attention, sink shares), also for REAL queries and keys
  (:func:`attention_statistics`);
* :mod:`.softmax` — the fused softmax into a reused buffer (private torch API behind one helper);
* :mod:`.threads` — worker threads, and torch's thread count lowered only while they run;
* :mod:`.device` — the torch device a computation runs on;
* :mod:`.view` — the inspector's views, captions and request; :mod:`.shuffle` — the shuffle test.

Views never hold an L × L matrix; memory is estimated and checked before anything large is
allocated; ``progress`` is called between tasks and may raise :class:`peapp.jobs.Cancelled`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# Each name is imported from its submodule on first use (PEP 562), so that importing the
# package for its settings (AttentionSpec, KINDS, …: the GUI builds its panels with them
# before torch has loaded) does not import torch; the submodules with tensors do.
if TYPE_CHECKING:
    from peapp.analysis.attention.blocks import (
        ENTRY_BUDGET,
        BlockSource,
        BlockStatistics,
        TensorSource,
        attention_statistics,
    )
    from peapp.analysis.attention.model import AttentionModel, get_model, model_bytes
    from peapp.analysis.attention.request import AttentionRequest, ShuffleRequest
    from peapp.analysis.attention.result import (
        AttentionView,
        ShuffleResult,
        caption,
        received_summary,
        uniform_causal_received,
    )
    from peapp.analysis.attention.schemes import SCHEME_TYPES, Scheme
    from peapp.analysis.attention.shuffle import SHUFFLE_MAX_TOKENS, attention_outputs, shuffle_test
    from peapp.analysis.attention.softmax import MASKED
    from peapp.analysis.attention.spec import (
        DEFAULT_SENTENCE,
        KINDS,
        MAX_SEQ_LEN,
        POOLINGS,
        SCHEME_LABELS,
        SCHEMES,
        SINK_KEYS,
        TOKEN_SOURCES,
        AttentionSpec,
        checkpoint_name,
        scheme_params_from_document,
        scheme_spec,
        sentence_words,
        word_vector,
    )
    from peapp.analysis.attention.view import (
        attention_view,
        estimate_view_bytes,
        full_matrices,
        last_query_weights,
        scheme_note,
    )

_HOME = {
    'AttentionModel': 'model',
    'AttentionRequest': 'request',
    'AttentionSpec': 'spec',
    'AttentionView': 'result',
    'BlockSource': 'blocks',
    'BlockStatistics': 'blocks',
    'DEFAULT_SENTENCE': 'spec',
    'ENTRY_BUDGET': 'blocks',
    'KINDS': 'spec',
    'MASKED': 'softmax',
    'MAX_SEQ_LEN': 'spec',
    'POOLINGS': 'spec',
    'SCHEMES': 'spec',
    'SCHEME_LABELS': 'spec',
    'SCHEME_TYPES': 'schemes',
    'SHUFFLE_MAX_TOKENS': 'shuffle',
    'SINK_KEYS': 'spec',
    'Scheme': 'schemes',
    'ShuffleRequest': 'request',
    'ShuffleResult': 'result',
    'TOKEN_SOURCES': 'spec',
    'TensorSource': 'blocks',
    'attention_outputs': 'shuffle',
    'attention_statistics': 'blocks',
    'attention_view': 'view',
    'caption': 'result',
    'checkpoint_name': 'spec',
    'estimate_view_bytes': 'view',
    'full_matrices': 'view',
    'get_model': 'model',
    'last_query_weights': 'view',
    'model_bytes': 'model',
    'received_summary': 'result',
    'scheme_note': 'view',
    'scheme_params_from_document': 'spec',
    'scheme_spec': 'spec',
    'sentence_words': 'spec',
    'shuffle_test': 'shuffle',
    'uniform_causal_received': 'result',
    'word_vector': 'spec',
}


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_HOME])


__all__ = ["DEFAULT_SENTENCE", "ENTRY_BUDGET", "KINDS", "MASKED", "MAX_SEQ_LEN", "POOLINGS", "SCHEMES",
           "SCHEME_LABELS", "SCHEME_TYPES", "SHUFFLE_MAX_TOKENS", "SINK_KEYS", "TOKEN_SOURCES", "AttentionModel",
           "AttentionRequest", "AttentionSpec", "AttentionView", "BlockSource", "BlockStatistics", "Scheme",
           "ShuffleRequest", "ShuffleResult", "TensorSource", "attention_outputs", "attention_statistics",
           "attention_view", "caption", "checkpoint_name", "estimate_view_bytes",
           "full_matrices", "get_model", "last_query_weights", "model_bytes", "received_summary",
           "scheme_note", "scheme_params_from_document", "scheme_spec", "sentence_words", "shuffle_test",
           "uniform_causal_received", "word_vector"]
