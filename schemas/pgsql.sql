-- sbtest DDL for PostgreSQL, as sysbench's oltp_common.lua creates it.
-- dbscale reads the sections below ("-- @name" up to the next one) and
-- replaces {N} (table number), {ID_DEF}, {ID_INDEX}.
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
