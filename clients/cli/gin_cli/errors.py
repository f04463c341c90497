"""gin's own failure: a command line it cannot carry out as given (the service's refusals are the SDK's
``ApiError``, which ``main`` turns into exit status 4)."""


class UsageError(Exception):
    """A command-line value the parser could not check by itself, or a command this login cannot run
    (exit status 2)."""
