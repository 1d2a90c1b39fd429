"""schemathesis against the served OpenAPI schema: no request, however odd, gets a 5xx.

One real `ishtar serve` for the module (flood limits lifted, so that the limits do not
answer in place of the code under test); schemathesis reads ``/openapi.json`` from it and
sends generated requests to every operation: valid, and deliberately invalid bodies, query
strings, paths and headers. Required: never a server error, and the server still up at the
end. (That each error has the documented shape is asserted by the server's own tests.)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode

from tests.support.databases import TestDatabases
from tests.support.examples import examples
from tests.support.live import LiveServer

pytestmark = pytest.mark.slow

UNLIMITED = {
    "ISHTAR_ROOMS_PER_MINUTE": "100000",
    "ISHTAR_HTTP_MOVES_PER_S": "100000",
}


@pytest.fixture(scope="module")
def api_server(
    test_databases: TestDatabases, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LiveServer]:
    url = test_databases.create(migrated=True)
    log = tmp_path_factory.mktemp("openapi") / "server.log"
    server = LiveServer(log, database_url=url, env=UNLIMITED)
    server.start()
    try:
        yield server
    finally:
        assert server.process is not None
        alive = server.process.poll() is None
        server.stop()
        test_databases.drop(url)
        assert alive, f"the server died under schemathesis:\n{server.log()}"


def test_no_request_gets_a_server_error(api_server: LiveServer) -> None:
    """Every operation, valid and invalid input alike (schemathesis' two modes)."""
    schema = schemathesis.openapi.from_url(f"{api_server.url}/openapi.json")
    operations = [cast(Any, result).ok() for result in schema.get_all_operations()]
    assert len(operations) >= 8, [op.label for op in operations]
    failures = []
    with requests.Session() as session:
        for operation in operations:
            for mode in GenerationMode:
                try:
                    no_server_error(operation, mode, api_server.url, session)
                except (
                    AssertionError
                ) as failure:  # go on: report every operation at once
                    failures.append(str(failure).split("\n")[0])
    assert not failures, "\n".join(failures)


def no_server_error(
    operation: Any, mode: GenerationMode, base_url: str, session: requests.Session
) -> None:
    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(
        max_examples=examples(20),
        deadline=None,
        derandomize=True,
        database=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    def check(case: Any) -> None:
        response = case.call(base_url=base_url, session=session, timeout=10)
        assert response.status_code < 500, (
            f"{operation.label} ({mode.value}) -> {response.status_code}: "
            f"{response.text[:300]}\n{case.as_curl_command()}"
        )

    try:
        check()
    except Unsatisfiable:
        # nothing in this operation can be made invalid (no parameters, no body)
        assert mode is GenerationMode.NEGATIVE
