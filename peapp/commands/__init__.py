"""CLI subcommands; each module is listed in ``peapp.cli.COMMANDS``."""
