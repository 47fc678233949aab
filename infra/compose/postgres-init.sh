#!/bin/sh
# Runs once, when the compose file's PostgreSQL creates its data directory: Quire gets a database
# and a role of its own beside Temporal's.
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres \
  -v password="$QUIRE_DB_PASSWORD" <<'SQL'
CREATE ROLE quire LOGIN PASSWORD :'password';
CREATE DATABASE quire OWNER quire;
SQL
