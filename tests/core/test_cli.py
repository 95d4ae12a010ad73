"""The ``peapp`` command line: every option's help shows its default; bad arguments exit 2
with one line on stderr.  (``peapp render`` needs Qt: see tests/gui/test_export.py.)"""

from __future__ import annotations

import argparse

import pytest

from peapp import cli


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def undocumented_defaults(parser: argparse.ArgumentParser) -> list[str]:
    """Options (and optional positionals) whose help, as printed, does not give their default."""
    formatter = parser._get_formatter()
    missing = []
    for action in parser._actions:
        if isinstance(action, (argparse._HelpAction, argparse._VersionAction, argparse._SubParsersAction)):
            continue
        if action.option_strings or action.nargs == "?":
            text = formatter._get_help_string(action) or ""
            if "(default" not in text:
                missing.append(action.dest)
    return missing


def test_every_option_of_peapp_gui_inspect_and_extrapolate_shows_its_default(capsys):
    parser = cli.build_parser()
    subs = _subparsers(parser)
    assert {"gui", "inspect", "render", "extrapolate"} <= set(subs)
    for name, sub in [("peapp", parser)] + [(n, subs[n]) for n in ("gui", "inspect", "extrapolate")]:
        assert undocumented_defaults(sub) == [], name
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["extrapolate", "--help"])
    assert exit_info.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    for flag, default in (("--train", "2048"), ("--eval", "8192"), ("--t5-buckets", "32"),
                          ("--t5-max-distance", "128"), ("--threshold", "10.0")):
        assert flag in text and f"(default: {default})" in text, flag
    assert "(default: evaluation length / training length)" in text
    assert "(default: None)" not in text  # said in words, not as a Python literal


def test_extrapolate_passes_the_t5_settings_through(capsys):
    assert cli.main(["extrapolate", "--train", "64", "--eval", "512", "--t5-buckets", "32",
                     "--t5-max-distance", "1024"]) == 0
    narrow = capsys.readouterr().out
    assert cli.main(["extrapolate", "--train", "64", "--eval", "512"]) == 0
    assert capsys.readouterr().out != narrow  # max_distance 1024 vs 128 changes the T5 verdict


@pytest.mark.parametrize("argv, message", [
    (["extrapolate", "--bogus"], "unrecognized arguments: --bogus"),
    (["extrapolate", "--train", "many"], "invalid int value"),
    (["extrapolate", "--train", "1"], "training length must be between 2"),
    (["extrapolate", "--t5-buckets", "5"], "even number of buckets"),
    (["inspect"], "the following arguments are required: path"),
    (["inspect", "/no/such/model"], "does not exist"),
    (["nosuchcommand"], "invalid choice"),
])
def test_bad_arguments_exit_2_with_one_line(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_info:
        raise SystemExit(cli.main(argv))
    assert exit_info.value.code == 2, argv
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and message in captured.err, captured.err
    assert captured.err.startswith("peapp"), captured.err


def test_installed_packages_add_subcommands_through_entry_points():
    """gui and render come from the ``peapp.commands`` entry points (pyproject.toml), not from the core."""
    from importlib.metadata import entry_points

    declared = {point.name: point.value for point in entry_points(group=cli.ENTRY_POINT_GROUP)}
    assert declared == {"gui": "ui.commands.gui", "render": "ui.commands.render"}, \
        "entry points missing or stale: reinstall (make test does it when pyproject.toml changes)"
    assert all(not name.startswith("ui.") for name in cli.CORE_COMMANDS)
    assert [m.NAME for m in cli.commands()] == ["inspect", "extrapolate", "lab", "run", "probe", "cost", "temperature", "gui", "render"]


def test_a_broken_or_clashing_command_package_leaves_the_core_commands_working(monkeypatch, capsys):
    from importlib.metadata import EntryPoint

    points = [EntryPoint("broken", "no_such_package_for_peapp.command", cli.ENTRY_POINT_GROUP),
              EntryPoint("inspect", "no_such_package_for_peapp.inspect", cli.ENTRY_POINT_GROUP)]
    monkeypatch.setattr(cli, "entry_points", lambda group: [p for p in points if p.group == group])
    assert [m.NAME for m in cli.commands()] == ["inspect", "extrapolate", "lab", "run", "probe", "cost", "temperature"]
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "command 'broken' unavailable" in err, err
    assert cli.main(["extrapolate", "--train", "64", "--eval", "128"]) == 0
