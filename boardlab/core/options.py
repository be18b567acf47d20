"""Game options: rule variants declared by each game and validated in one place."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import OptionError

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


@dataclass(frozen=True)
class Option:
    """One rule option of a game.

    ``kind`` is the value type (``str``, ``int``, ``float`` or ``bool``). ``choices``
    lists the allowed values when they are a closed set; ``minimum``/``maximum``
    bound numeric options. ``help`` is one line for the catalog.
    """

    name: str
    default: Any
    help: str
    kind: type = str
    choices: tuple[Any, ...] | None = None
    minimum: float | None = None
    maximum: float | None = None

    def allowed(self) -> str:
        """A short human description of the allowed values."""
        if self.choices is not None:
            return " | ".join(_show(c) for c in self.choices)
        if self.kind is bool:
            return "true | false"
        noun = {int: "a whole number", float: "a number"}.get(self.kind)
        if noun is None:
            return "text" if self.kind is str else f"a {self.kind.__name__}"
        if self.minimum is not None and self.maximum is not None:
            return f"{noun} from {_show(self.minimum)} to {_show(self.maximum)}"
        if self.minimum is not None:
            return f"{noun} of at least {_show(self.minimum)}"
        if self.maximum is not None:
            return f"{noun} of at most {_show(self.maximum)}"
        return noun

    def coerce(self, value: Any) -> Any:
        """Return ``value`` as this option's type, accepting strings from a command line.

        Raises :class:`OptionError` naming the option and the allowed values.
        """
        try:
            converted = self._convert(value)
        except (TypeError, ValueError):
            raise OptionError(
                f"option {self.name}={value!r}: expected {self.allowed()}"
            ) from None
        if self.choices is not None and converted not in self.choices:
            raise OptionError(
                f"option {self.name}={value!r}: allowed values are {self.allowed()}"
            )
        if self.minimum is not None and converted < self.minimum:
            raise OptionError(f"option {self.name}={value!r}: must be >= {_show(self.minimum)}")
        if self.maximum is not None and converted > self.maximum:
            raise OptionError(f"option {self.name}={value!r}: must be <= {_show(self.maximum)}")
        return converted

    def _convert(self, value: Any) -> Any:
        if value is None:
            if self.default is None:
                return None
            raise ValueError
        if self.kind is bool:
            if isinstance(value, bool):
                return value
            text = str(value).strip().lower()
            if text in _TRUE:
                return True
            if text in _FALSE:
                return False
            raise ValueError
        if self.kind is int:
            if isinstance(value, bool):
                raise ValueError
            if isinstance(value, float) and not value.is_integer():
                raise ValueError
            return int(value)
        if self.kind is float:
            if isinstance(value, bool):
                raise ValueError
            return float(value)
        if isinstance(value, str) and self.choices is not None:
            return value.strip()
        return self.kind(value)

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "default": self.default,
            "allowed": self.allowed(),
            "choices": list(self.choices) if self.choices is not None else None,
            "minimum": self.minimum,
            "maximum": self.maximum,
            "help": self.help,
        }


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    return str(value)


def resolve_options(
    game_id: str, spec: tuple[Option, ...], given: Mapping[str, Any]
) -> dict[str, Any]:
    """Validate ``given`` against ``spec`` and fill in defaults.

    An unknown option name raises :class:`OptionError` listing the valid names.
    """
    by_name = {opt.name: opt for opt in spec}
    unknown = [name for name in given if name not in by_name]
    if unknown:
        valid = ", ".join(sorted(by_name)) or "(none)"
        raise OptionError(f"{game_id}: unknown option {unknown[0]!r}; valid options: {valid}")
    resolved = {opt.name: opt.default for opt in spec}
    for name, value in given.items():
        resolved[name] = by_name[name].coerce(value)
    return resolved
