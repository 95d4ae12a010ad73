"""The errors a user can cause.  Each message says what went wrong and what to do."""


class PeappError(Exception):
    """Base class: anything the GUI shows in the status bar or a dialog instead of a traceback."""


class ParameterError(PeappError, ValueError):
    """A parameter is out of range or inconsistent with another one."""


class SizeError(PeappError, MemoryError):
    """A requested array would not fit in memory; raised before anything is allocated."""


class PositionOutOfRangeError(PeappError, IndexError):
    """A learned table has no row for the requested position."""


class CheckpointError(PeappError):
    """A checkpoint or config file could not be read or understood."""


class DocumentError(PeappError):
    """A session file could not be read (bad JSON, newer version, unknown keys)."""


class DataFileError(PeappError):
    """A data file (e.g. a time-series CSV) could not be read or has no usable rows."""


class ResultsWriteError(PeappError, OSError):
    """A results folder cannot be written (unwritable, full disk); what was saved is kept."""
