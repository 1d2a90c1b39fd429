"""ORM declarations: the `Base` every table derives from.

Tables are declared here (or in modules imported here) so that Alembic's autogenerate sees
them through `Base.metadata`. The schema itself only ever changes through revisions in
`migrations/versions/`; `create_all` is for tests of the models alone.
"""

from __future__ import annotations

from sqlalchemy import MetaData
from sqlalchemy.orm import DeclarativeBase

# Named constraints make migrations reviewable and downgrades possible: Alembic can only
# drop a constraint it can name.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """Declarative base of all tables, with the project's constraint naming convention."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)
