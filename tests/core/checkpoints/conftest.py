import pytest

from tests.core.checkpoints.checkpoint_builders import build_all


@pytest.fixture(scope="session")
def tiny(tmp_path_factory):
    """name → path of every tiny checkpoint (built once per session, ~10 s)."""
    return build_all(tmp_path_factory.mktemp("ckpts"))
