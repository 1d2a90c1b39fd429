"""Reviewed schema revisions, one file each, applied in order by Alembic."""
