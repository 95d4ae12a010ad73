"""CLI subcommands that need the GUI (``peapp gui``, ``peapp render``).

``peapp.cli`` finds them through the ``peapp.commands`` entry points declared in
pyproject.toml; each module has the same shape as ``peapp/commands/*.py``.
"""
