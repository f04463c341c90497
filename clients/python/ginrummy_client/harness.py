"""Deprecated, for one release: ``gin-bot`` is a program of its own now, the ``ginrummy-bot``
distribution (``pip install ./clients/python ./clients/bot``), whose package is ``gin_bot``. A name read
from this module is ``gin_bot.harness``'s (imported then: the SDK itself does not need ``gin_bot``).
"""

import importlib
import warnings
from typing import Any

warnings.warn(
    "ginrummy_client.harness is deprecated and goes in the next release: gin-bot is the ginrummy-bot "
    "distribution now; import gin_bot.harness",
    DeprecationWarning,
    stacklevel=2,
)


def __getattr__(name: str) -> Any:
    return getattr(importlib.import_module("gin_bot.harness"), name)
