-- The orders search matches an order id by its beginning (part of an id, pasted or typed):
-- `"id" LIKE 'ord_abc%'`, answered by trigrams whatever the database's collation (the primary
-- key's btree serves LIKE only under the C collation), like the search's other branches.
CREATE INDEX "Order_id_trgm_idx" ON "Order" USING GIN ("id" gin_trgm_ops);
