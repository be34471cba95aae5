-- sbtest DDL for PostgreSQL, as sysbench's oltp_common.lua creates it.
-- dbscale reads the sections below ("-- @name" up to the next one) and
-- replaces {N} (table number), {ID_DEF}, {ID_INDEX}, {SIZE} (--table-size).
-- @create
CREATE TABLE sbtest{N}(
  id {ID_DEF},
  k INTEGER DEFAULT '0' NOT NULL,
  c CHAR(120) DEFAULT '' NOT NULL,
  pad CHAR(60) DEFAULT '' NOT NULL,
  {ID_INDEX} (id)
);
-- @index
CREATE INDEX k_{N} ON sbtest{N}(k);
-- @drop
DROP TABLE IF EXISTS sbtest{N};
-- @prewarm
-- sysbench's prewarm is MySQL only; this does its work on PostgreSQL. With
-- the pg_prewarm extension (contrib; CREATE EXTENSION pg_prewarm in the
-- database, as a superuser) every block of the table and of its indexes is
-- read into shared buffers; without it, an index scan of the primary key and
-- one of k, as sysbench's MySQL statements. One DO block, so the choice is
-- the server's. Statements are split at ';' + newline outside $$ quotes.
ANALYZE sbtest{N};
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_prewarm') THEN
    PERFORM pg_prewarm(c.oid) FROM pg_class c
      WHERE c.oid = 'sbtest{N}'::regclass
         OR c.oid IN (SELECT indexrelid FROM pg_index WHERE indrelid = 'sbtest{N}'::regclass);
  ELSE
    SET LOCAL enable_seqscan = off;
    PERFORM avg(id) FROM (SELECT * FROM sbtest{N} ORDER BY id LIMIT {SIZE}) t;
    PERFORM count(*) FROM (SELECT k FROM sbtest{N} ORDER BY k LIMIT {SIZE}) t;
  END IF;
END $$;
