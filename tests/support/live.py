"""Real `ishtar serve` processes for tests that need a server over TCP (websocket, browser, crash).

A `LiveServer` is a subprocess running the actual command line, so what is tested is what
users run: argument parsing, migrations at start, uvicorn, signals.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path

import httpx


def free_port() -> int:
    """A TCP port that was free a moment ago on 127.0.0.1."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class LiveServer:
    """One `ishtar serve` subprocess; `url` is its base URL (no trailing slash)."""

    def __init__(
        self,
        log_path: Path,
        *,
        database_url: str | None = None,
        data_dir: Path | None = None,
        env: Mapping[str, str] | None = None,
        port: int | None = None,
        args: tuple[str, ...] = (),
    ) -> None:
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = log_path
        self._env = {
            key: value
            for key, value in os.environ.items()
            if key != "DATABASE_URL" and not key.startswith("ISHTAR_")
        }
        if database_url is not None:
            self._env["DATABASE_URL"] = database_url
        if data_dir is not None:
            self._env["ISHTAR_DATA_DIR"] = str(data_dir)
        self._env.update(env or {})
        self._args = args
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 60.0) -> LiveServer:
        """Start the process and wait until /readyz answers 200."""
        command = [sys.executable, "-m", "app", "serve", "--host", "127.0.0.1"]
        command += ["--port", str(self.port), *self._args]
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                command,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                env=self._env,
            )
        self.wait_ready(timeout)
        return self

    def wait_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        last = "no answer"
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"server exited with {self.process.returncode}:\n{self.log()}"
                )
            try:
                response = httpx.get(f"{self.url}/readyz", timeout=2.0)
                if response.status_code == 200:
                    return
                last = response.text
            except httpx.HTTPError as error:
                last = repr(error)
            time.sleep(0.1)
        self.kill()
        raise TimeoutError(f"server not ready after {timeout}s ({last}):\n{self.log()}")

    def stop(self, timeout: float = 15.0) -> int | None:
        """SIGTERM, as a service manager would; SIGKILL if it does not stop in time."""
        if self.process is None or self.process.poll() is not None:
            return None if self.process is None else self.process.returncode
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise

    def kill(self) -> None:
        """SIGKILL: the crash of a server, with no chance to clean up."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-5000:]
        except OSError:
            return "(no log)"
