"""The core's CLI subcommands (listed in ``peapp.cli.CORE_COMMANDS``); GUI ones are in ``ui/commands/``."""
