"""``/api/designers``: who the caller is, signing in and out (the Lab page's cookie), and an
admin's issuing and revoking of designer keys (:mod:`boardlab.server.designers`)."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import Field, StringConstraints

from ..designers import SESSION_COOKIE, AdminOnly, Designer, DesignerKeys, DesignerOnly
from ..errors import BadDesignerKeyError, ServerError
from ..schemas import ErrorResponse, Strict, Text

router = APIRouter(prefix="/api/designers", tags=["designers"], responses={"4XX": {"model": ErrorResponse}})
#: how long the sign-in cookie lasts (a designer signs in again after that)
SESSION_SECONDS = 30 * 24 * 3600


class NoDesignerError(ServerError):
    code = "not_found"


class SignIn(Strict):
    key: Annotated[Text, StringConstraints(min_length=1, max_length=200)] = Field(description="a designer key")


class NewDesigner(Strict):
    name: Annotated[Text, StringConstraints(min_length=1, max_length=40)] = Field(description="who the key is for")
    admin: bool = Field(False, description="whether they may issue keys and manage everybody's studies")


def _keys(request: Request) -> DesignerKeys:
    keys: DesignerKeys = request.app.state.designers
    return keys


@router.get("/me", summary="the designer this request signs in as (designer_key_missing: not signed in)")
def me(designer: DesignerOnly) -> dict[str, Any]:
    return designer.to_json()


@router.post("/session", summary="sign in: a designer key becomes the Lab page's cookie (HttpOnly, SameSite=Strict)")
async def sign_in(body: SignIn, request: Request) -> JSONResponse:
    designer = await asyncio.to_thread(_keys(request).find, body.key.strip())
    if designer is None:
        raise BadDesignerKeyError("this designer key is not valid on this server (unknown or revoked)")
    answer = JSONResponse(designer.to_json())
    answer.set_cookie(
        SESSION_COOKIE,
        body.key.strip(),
        max_age=SESSION_SECONDS,
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
        path="/",
    )
    return answer


@router.delete("/session", status_code=204, summary="sign out: the cookie is cleared")
def sign_out() -> Response:
    answer = Response(status_code=204)
    answer.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="strict")
    return answer


@router.get("", summary="every designer (admins only; never a key)")
def list_designers(request: Request, _admin: AdminOnly) -> list[dict[str, Any]]:
    return _keys(request).listed()


@router.post("", status_code=201, summary="issue a designer key (admins only; the key is shown once)")
def issue(body: NewDesigner, request: Request, admin: AdminOnly) -> dict[str, Any]:
    designer, key = _keys(request).issue(body.name, body.admin, admin)
    return {**designer.to_json(), "key": key}


@router.delete("/{designer_id}", status_code=204, summary="revoke a designer's key (admins only)")
def revoke(designer_id: str, request: Request, admin: AdminOnly) -> Response:
    if designer_id == admin.id or not _keys(request).revoke(designer_id[:40]):
        raise NoDesignerError(
            f"no designer {designer_id[:40]!r} whose key can be revoked here (an admin key from a data folder "
            "is changed by replacing its admin.key file)"
        )
    return Response(status_code=204)


__all__ = ["Designer", "router"]
