"""Where the networks run: ``resolve_device`` turns a ``--device`` option (cpu | cuda | cuda:N | auto)
into a ``torch.device``, or a ``DeviceError`` naming the device and why it cannot be used, before any
hand is played. The engine always runs on the CPU threads; only the networks move.

torch is imported only where a device is resolved: ``device_name("cpu")``, every command's default,
needs none, so a command of rule agents never loads it (about 2 CPU s a start).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import torch

DEVICE_CHOICES = "cpu | cuda | cuda:N | auto"


class DeviceError(ValueError):
    """A device the option names that torch cannot use here (no CUDA, no such index, a bad name)."""


def device_name(spec: str) -> str:
    """The device ``spec`` names, as a string the networks' ``device=`` takes: ``"cpu"`` as it is
    (without torch), any other through ``resolve_device`` (``auto`` to the device it picks; a device
    not there: ``DeviceError``)."""
    return "cpu" if spec == "cpu" else str(resolve_device(spec))


def resolve_device(spec: str | torch.device) -> torch.device:
    """``auto``: the first CUDA device when torch sees one, else the CPU; ``cuda`` / ``cuda:N``: that
    device, which must exist; ``cpu``: the CPU."""
    import torch

    if isinstance(spec, torch.device):
        spec = str(spec)
    if not isinstance(spec, str) or not re.fullmatch(r"cpu|auto|cuda(:\d{1,3})?", spec.strip()):
        raise DeviceError(f"device {spec!r}: give one of {DEVICE_CHOICES}")
    spec = spec.strip()
    if spec == "cpu":
        return torch.device("cpu")
    available = torch.cuda.is_available()
    if spec == "auto":
        return torch.device("cuda:0" if available else "cpu")
    if not available:
        raise DeviceError(
            f"device {spec!r} is not available: torch sees no CUDA device here "
            f"(torch {torch.__version__}, built with CUDA {torch.version.cuda}); use --device cpu"
        )
    dev = torch.device(spec)
    count = torch.cuda.device_count()
    if dev.index is not None and dev.index >= count:
        raise DeviceError(
            f"device {spec!r} is not available: torch sees {count} CUDA device(s), cuda:0..cuda:{count - 1}"
        )
    return dev


def synchronize(device: torch.device) -> None:
    """Wait for the device's queued work (CUDA runs asynchronously), so that a timer around a phase
    measures the phase; nothing to wait for on the CPU."""
    if device.type == "cuda":
        import torch

        torch.cuda.synchronize(device)
