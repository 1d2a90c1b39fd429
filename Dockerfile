# Ishtar Online: the web service, for `docker compose up` (see docker-compose.yml).
# The database comes from DATABASE_URL; without it, an embedded PostgreSQL runs in
# ISHTAR_DATA_DIR (mount a volume there to keep it).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

RUN useradd --create-home --uid 10001 --shell /usr/sbin/nologin ishtar
WORKDIR /app

COPY pyproject.toml README.md ./
COPY app ./app
COPY engine ./engine
COPY bots ./bots
COPY games ./games
COPY migrations ./migrations
RUN pip install .

# Served from these directories (not part of the Python package).
COPY static ./static
COPY templates ./templates

ENV ISHTAR_STATIC_DIR=/app/static \
    ISHTAR_TEMPLATES_DIR=/app/templates \
    ISHTAR_DATA_DIR=/home/ishtar/data \
    ISHTAR_HOST=0.0.0.0 \
    ISHTAR_PORT=8000

USER ishtar
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/readyz', timeout=4)"]

# Migrations first (a failure stops the container before it serves), then the server.
CMD ["sh", "-c", "ishtar db upgrade && exec ishtar serve --host 0.0.0.0 --port 8000"]
