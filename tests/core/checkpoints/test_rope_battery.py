"""Every RoPE model type of the installed transformers, read by ``peapp inspect`` as its own code
reads it (see rope_battery.py).  Builds ~250 configs and rotary modules once per session (~75 s
at load 10 on 2 cores; most of it importing the modeling modules)."""

import pytest

from tests.core.checkpoints import rope_battery


@pytest.fixture(scope="session")
def battery(tmp_path_factory):
    return rope_battery.build_battery(str(tmp_path_factory.mktemp("rope_battery")))


@pytest.fixture(scope="session")
def legacy(tmp_path_factory):
    return rope_battery.build_legacy(str(tmp_path_factory.mktemp("rope_legacy")))


def test_battery_is_systematic(battery):
    # the list comes from CONFIG_MAPPING, not by hand: a shrinking battery means the filter broke
    assert len(battery) >= 200
    skipped = [c for c in battery if c.skip]
    assert len(skipped) <= 15, [(c.model_type, c.skip) for c in skipped]


def test_every_rope_model_type_reads_as_its_code(battery):
    wrong = {c.model_type: why for c in battery if not c.skip and (why := rope_battery.judge(c))}
    unexpected = {k: v for k, v in wrong.items() if k not in rope_battery.KNOWN_WRONG}
    fixed = sorted(k for k in rope_battery.KNOWN_WRONG if k not in wrong and any(c.model_type == k for c in battery))
    assert not unexpected, unexpected
    assert not fixed, f"now right: drop {fixed} from KNOWN_WRONG"
    # a scheme read only approximately must say so (the others in KNOWN_WRONG are default configs
    # no real file has)
    from peapp.checkpoints import inspect
    from peapp import model_types

    for case in battery:
        if model_types.get(case.model_type).rope_not_modelled and not case.skip:
            warnings = inspect(case.path).warnings
            assert any("reads it as 1-D RoPE" in w for w in warnings), (case.model_type, warnings)


@pytest.mark.parametrize("name", [name for name, _, _ in rope_battery.LEGACY])
def test_4x_era_config_spellings(legacy, name):
    case = next(c for c in legacy if c.model_type == name)
    assert rope_battery.judge(case) is None
