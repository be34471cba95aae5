-- sbtest DDL for MySQL/MariaDB, as sysbench's oltp_common.lua creates it.
-- dbscale reads the sections below ("-- @name" up to the next one) and
-- replaces {N} (table number), {ID_DEF}, {ID_INDEX}, {ENGINE}, {SIZE} (--table-size).
-- @create
CREATE TABLE sbtest{N}(
  id {ID_DEF},
  k INTEGER DEFAULT '0' NOT NULL,
  c CHAR(120) DEFAULT '' NOT NULL,
  pad CHAR(60) DEFAULT '' NOT NULL,
  {ID_INDEX} (id)
) /*! ENGINE = {ENGINE} */;
-- @index
CREATE INDEX k_{N} ON sbtest{N}(k);
-- @drop
DROP TABLE IF EXISTS sbtest{N};
-- @prewarm
-- sysbench 1.0.20's cmd_prewarm (oltp_common.lua), statement for statement:
-- no on-disk temporary tables, then every row through the PRIMARY KEY and
-- the k index into the buffer pool. Statements are split at ';' + newline.
SET tmp_table_size=2*1024*1024*1024;
SET max_heap_table_size=2*1024*1024*1024;
ANALYZE TABLE sbtest{N};
SELECT AVG(id) FROM (SELECT * FROM sbtest{N} FORCE KEY (PRIMARY) LIMIT {SIZE}) t;
SELECT COUNT(*) FROM (SELECT * FROM sbtest{N} WHERE k LIKE '%0%' LIMIT {SIZE}) t;
