"""Websocket frames as `ishtar serve` writes them: compressed without context, built once.

Browsers always offer `permessage-deflate` (RFC 7692). With uvicorn's settings each socket
kept a compressor and an inflater for as long as it lived, about 49 KiB of zlib state a
socket, and compressed every message again for each socket it went to
(docs/journal/benchmarks-history.md, "Browser-like sockets, and the floor beside ours").
Here the extension is negotiated with no context takeover either way
(`server_no_context_takeover`, `client_no_context_takeover`): each message is compressed and
inflated on its own, so a socket holds no zlib state between messages, and a message
compresses to the same frame for every socket. Messages shorter than `MIN_COMPRESSED`
bytes are sent uncompressed (RFC 7692 lets a sender leave any message uncompressed): a
move's ack or a presence change gains nothing from it.

A server frame is not masked, so the frame of a message is the same bytes for every socket
that negotiated the same compression: `FrameCache` keeps the frames last built, bounded in
bytes, and the same update fanned out to a thousand spectators is compressed and framed
once.
"""

from __future__ import annotations

import sys
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from websockets.exceptions import NegotiationError
from websockets.extensions.base import Extension
from websockets.extensions.permessage_deflate import (
    PerMessageDeflate,
    ServerPerMessageDeflateFactory,
)
from websockets.frames import Frame, Opcode
from websockets.typing import ExtensionParameter

MIN_COMPRESSED = 512  # bytes: shorter messages go uncompressed
COMPRESS_LEVEL = 3
ENTRY_OVERHEAD = 200  # bytes an entry keeps beyond its text and frame (key, dict slot)


class ContextFreeDeflate(PerMessageDeflate):
    """permessage-deflate with no context kept between messages, small ones left as they are."""

    def encode(self, frame: Frame) -> Frame:
        if frame.opcode in (Opcode.TEXT, Opcode.BINARY) and len(frame.data) < (
            MIN_COMPRESSED
        ):
            return frame
        return super().encode(frame)

    @property
    def frame_key(self) -> int:
        """What tells apart the frames two sockets need for one message (the window)."""
        return self.local_max_window_bits


class ContextFreeDeflateFactory(ServerPerMessageDeflateFactory):
    """Accepts a client's offer as `ContextFreeDeflate`, with no context takeover either way."""

    def __init__(self) -> None:
        super().__init__(
            server_no_context_takeover=True,
            client_no_context_takeover=True,
            # Level 3, not zlib's default 6: on a seat's update with its legal actions
            # (29 KB of JSON) 49 us instead of 254, for 1,622 bytes instead of 1,358.
            compress_settings={"level": COMPRESS_LEVEL, "memLevel": 8},
        )

    def process_request_params(
        self,
        params: Sequence[ExtensionParameter],
        accepted_extensions: Sequence[Extension],
    ) -> tuple[list[ExtensionParameter], PerMessageDeflate]:
        response, accepted = super().process_request_params(params, accepted_extensions)
        if not (
            accepted.local_no_context_takeover and accepted.remote_no_context_takeover
        ):  # pragma: no cover - the factory's settings force both
            raise NegotiationError("context takeover is not offered")
        return response, ContextFreeDeflate(
            remote_no_context_takeover=True,
            local_no_context_takeover=True,
            remote_max_window_bits=accepted.remote_max_window_bits,
            local_max_window_bits=accepted.local_max_window_bits,
            compress_settings=accepted.compress_settings,
        )


def deflate_factory() -> ContextFreeDeflateFactory:
    """The extension factory for the server's websocket protocol."""
    return ContextFreeDeflateFactory()


def frame_key(extensions: Sequence[Extension]) -> int:
    """0 for a socket that compresses nothing, else its compression's `frame_key`."""
    for extension in extensions:
        if isinstance(extension, ContextFreeDeflate):
            return extension.frame_key
    return 0


def build_frame(text: str, extensions: Sequence[Extension]) -> bytes:
    """The bytes of a server's text frame carrying `text`, compressed as negotiated."""
    return Frame(Opcode.TEXT, text.encode()).serialize(
        mask=False, extensions=list(extensions)
    )


class FrameCache:
    """The frames last built, by message and compression; bounded in bytes, oldest out first.

    An entry keeps its text alive (the key) as well as its frame: both are counted.
    """

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0
        self.hits = 0
        self.misses = 0
        self._frames: OrderedDict[tuple[str, int], tuple[bytes, int]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._frames)

    def frame(self, text: str, extensions: Sequence[Extension]) -> bytes:
        """The frame of `text` for a socket with these extensions, built at most once while
        it stays in the cache."""
        key = (text, frame_key(extensions))
        entry = self._frames.get(key)
        if entry is not None:
            self.hits += 1
            self._frames.move_to_end(key)
            return entry[0]
        self.misses += 1
        frame = build_frame(text, extensions)
        size = sys.getsizeof(text) + sys.getsizeof(frame) + ENTRY_OVERHEAD
        if size <= self.max_bytes // 4:
            self._frames[key] = (frame, size)
            self.bytes += size
            while self.bytes > self.max_bytes:
                _, (_, dropped) = self._frames.popitem(last=False)
                self.bytes -= dropped
        return frame

    def clear(self) -> None:
        self._frames.clear()
        self.bytes = 0

    def stats(self) -> dict[str, Any]:
        return {
            "entries": len(self._frames),
            "bytes": self.bytes,
            "hits": self.hits,
            "misses": self.misses,
        }
