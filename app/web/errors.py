"""The refusals the framework makes itself, answered in the documented shape.

Routes refuse with a `ServiceError` (app/play/protocol.py). Starlette and FastAPI refuse a
few requests before any route runs, with an `HTTPException` and a body of their own
(``{"detail": "Not Found"}``); `http_error` answers each of them as
``{"error": {"code", "reason"}}`` with a code of docs/protocol.md's table instead:

- a body FastAPI cannot read (not UTF-8, or JSON nested deeper than Python's recursion
  limit): `malformed` (400), its reason naming which;
- a path no route serves: `not_found` (404);
- a method the route does not take: `method_not_allowed` (405, with ``Allow``).
"""

from __future__ import annotations

from http import HTTPStatus

from fastapi import Request
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException

from app.play.protocol import ServiceError, msg

# The status of an HTTPException the framework raises -> the code it is answered with.
CODES = {
    400: "malformed",
    401: "bad_token",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
    429: "rate_limited",
    503: "unavailable",
}
REASONS = {
    "not_found": "There is nothing at this address.",
    "method_not_allowed": "This address does not take that method.",
}


def unreadable_body(cause: BaseException | None) -> ServiceError:
    """The refusal of a body FastAPI could not parse, by what went wrong."""
    if isinstance(cause, UnicodeDecodeError):
        return ServiceError(
            "malformed",
            "The body is not UTF-8 text.",
            message=msg("error.malformed.body_not_utf8"),
        )
    if isinstance(cause, RecursionError):
        return ServiceError(
            "malformed",
            "The body's JSON is nested too deeply.",
            message=msg("error.malformed.body_too_deep"),
        )
    return ServiceError(
        "malformed",
        "The body could not be read.",
        message=msg("error.malformed.body_not_json"),
    )


def refusal(exc: HTTPException) -> ServiceError:
    """The `ServiceError` that says what `exc` says, with a documented code."""
    if exc.status_code == 400:
        return unreadable_body(exc.__cause__)
    code = CODES.get(
        exc.status_code, "internal" if exc.status_code >= 500 else "malformed"
    )
    detail = exc.detail
    if not isinstance(detail, str) or detail == HTTPStatus(exc.status_code).phrase:
        detail = REASONS.get(code, "The request was refused.")  # not the bare phrase
    return ServiceError(code, detail)


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if exc.status_code < 400:  # not a refusal (304 Not Modified): no body
        return Response(status_code=exc.status_code, headers=exc.headers)
    error = refusal(exc)
    # The status stays the framework's (405 keeps its Allow header).
    return JSONResponse(error.body(), status_code=exc.status_code, headers=exc.headers)
