ALTER TABLE `movies` ADD `search_rowid` integer;--> statement-breakpoint
CREATE INDEX `movies_search_idx` ON `movies` (`search_rowid`,`status`,`approved`);--> statement-breakpoint
-- A search joined its matches to their titles through movies_fts.movie_id, a column the index does not
-- hold: reading it loads each match's stored row (title, description and cast), which was most of the time
-- a common word's search took. Each title now keeps the rowid of its search row (search_rowid), and a
-- search joins by that integer through movies_search_idx, which also says whether the title is published.
-- The numbers are handed out by the insert trigger (one more than the highest in use) and kept in a plain
-- column, so a VACUUM, which may renumber the titles' own rowids, never breaks the link.
DROP TRIGGER `movies_fts_after_insert`;
--> statement-breakpoint
DROP TRIGGER `movies_fts_after_update`;
--> statement-breakpoint
DROP TRIGGER `movies_fts_after_delete`;
--> statement-breakpoint
UPDATE `movies` SET `search_rowid` = rowid;
--> statement-breakpoint
DELETE FROM `movies_fts`;
--> statement-breakpoint
INSERT INTO `movies_fts` (rowid, movie_id, name, description, cast_names) SELECT `search_rowid`, `id`, replace(replace(replace(replace(replace(replace(replace(replace(`name`, 'ɗ', 'd'), 'Ɗ', 'D'), 'ƙ', 'k'), 'Ƙ', 'K'), 'ɓ', 'b'), 'Ɓ', 'B'), 'ƴ', 'y'), 'Ƴ', 'Y'), replace(replace(replace(replace(replace(replace(replace(replace(`description`, 'ɗ', 'd'), 'Ɗ', 'D'), 'ƙ', 'k'), 'Ƙ', 'K'), 'ɓ', 'b'), 'Ɓ', 'B'), 'ƴ', 'y'), 'Ƴ', 'Y'), replace(replace(replace(replace(replace(replace(replace(replace(`cast`, 'ɗ', 'd'), 'Ɗ', 'D'), 'ƙ', 'k'), 'Ƙ', 'K'), 'ɓ', 'b'), 'Ɓ', 'B'), 'ƴ', 'y'), 'Ƴ', 'Y') FROM `movies`;
--> statement-breakpoint
CREATE TRIGGER `movies_fts_after_insert` AFTER INSERT ON `movies` BEGIN
  UPDATE `movies` SET `search_rowid` = (SELECT coalesce(max(`search_rowid`), 0) + 1 FROM `movies`) WHERE `id` = new.`id`;
  INSERT INTO `movies_fts` (rowid, movie_id, name, description, cast_names) SELECT `search_rowid`, new.`id`, replace(replace(replace(replace(replace(replace(replace(replace(new.`name`, 'ɗ', 'd'), 'Ɗ', 'D'), 'ƙ', 'k'), 'Ƙ', 'K'), 'ɓ', 'b'), 'Ɓ', 'B'), 'ƴ', 'y'), 'Ƴ', 'Y'), replace(replace(replace(replace(replace(replace(replace(replace(new.`description`, 'ɗ', 'd'), 'Ɗ', 'D'), 'ƙ', 'k'), 'Ƙ', 'K'), 'ɓ', 'b'), 'Ɓ', 'B'), 'ƴ', 'y'), 'Ƴ', 'Y'), replace(replace(replace(replace(replace(replace(replace(replace(new.`cast`, 'ɗ', 'd'), 'Ɗ', 'D'), 'ƙ', 'k'), 'Ƙ', 'K'), 'ɓ', 'b'), 'Ɓ', 'B'), 'ƴ', 'y'), 'Ƴ', 'Y') FROM `movies` WHERE `id` = new.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `movies_fts_after_update` AFTER UPDATE OF `id`, `name`, `description`, `cast` ON `movies` BEGIN
  DELETE FROM `movies_fts` WHERE rowid = old.`search_rowid`;
  INSERT INTO `movies_fts` (rowid, movie_id, name, description, cast_names) VALUES (new.`search_rowid`, new.`id`, replace(replace(replace(replace(replace(replace(replace(replace(new.`name`, 'ɗ', 'd'), 'Ɗ', 'D'), 'ƙ', 'k'), 'Ƙ', 'K'), 'ɓ', 'b'), 'Ɓ', 'B'), 'ƴ', 'y'), 'Ƴ', 'Y'), replace(replace(replace(replace(replace(replace(replace(replace(new.`description`, 'ɗ', 'd'), 'Ɗ', 'D'), 'ƙ', 'k'), 'Ƙ', 'K'), 'ɓ', 'b'), 'Ɓ', 'B'), 'ƴ', 'y'), 'Ƴ', 'Y'), replace(replace(replace(replace(replace(replace(replace(replace(new.`cast`, 'ɗ', 'd'), 'Ɗ', 'D'), 'ƙ', 'k'), 'Ƙ', 'K'), 'ɓ', 'b'), 'Ɓ', 'B'), 'ƴ', 'y'), 'Ƴ', 'Y'));
END;
--> statement-breakpoint
CREATE TRIGGER `movies_fts_after_delete` AFTER DELETE ON `movies` BEGIN
  DELETE FROM `movies_fts` WHERE rowid = old.`search_rowid`;
END;
