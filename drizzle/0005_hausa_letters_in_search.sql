-- Hausa's hooked letters (ɗ ƙ ɓ ƴ) are letters of their own to unicode61, not accented d k b y,
-- so "dan kasuwa" typed on a keyboard without them did not find "Ɗan Kasuwa". The index now holds
-- the text with them folded to the plain letters, and the app folds the words searched for the
-- same way (search.server.ts, foldHausaLetters). movies_fts is only searched, never shown.
DROP TRIGGER `movies_fts_after_insert`;
--> statement-breakpoint
DROP TRIGGER `movies_fts_after_update`;
--> statement-breakpoint
DELETE FROM `movies_fts`;
--> statement-breakpoint
INSERT INTO `movies_fts` (movie_id, name, description, cast_names) SELECT `id`, replace(replace(replace(replace(replace(replace(replace(replace(`name`, 'ɗ', 'd'), 'Ɗ', 'D'), 'ƙ', 'k'), 'Ƙ', 'K'), 'ɓ', 'b'), 'Ɓ', 'B'), 'ƴ', 'y'), 'Ƴ', 'Y'), replace(replace(replace(replace(replace(replace(replace(replace(`description`, 'ɗ', 'd'), 'Ɗ', 'D'), 'ƙ', 'k'), 'Ƙ', 'K'), 'ɓ', 'b'), 'Ɓ', 'B'), 'ƴ', 'y'), 'Ƴ', 'Y'), replace(replace(replace(replace(replace(replace(replace(replace(`cast`, 'ɗ', 'd'), 'Ɗ', 'D'), 'ƙ', 'k'), 'Ƙ', 'K'), 'ɓ', 'b'), 'Ɓ', 'B'), 'ƴ', 'y'), 'Ƴ', 'Y') FROM `movies`;
--> statement-breakpoint
CREATE TRIGGER `movies_fts_after_insert` AFTER INSERT ON `movies` BEGIN
  INSERT INTO `movies_fts` (movie_id, name, description, cast_names) VALUES (new.`id`, replace(replace(replace(replace(replace(replace(replace(replace(new.`name`, 'ɗ', 'd'), 'Ɗ', 'D'), 'ƙ', 'k'), 'Ƙ', 'K'), 'ɓ', 'b'), 'Ɓ', 'B'), 'ƴ', 'y'), 'Ƴ', 'Y'), replace(replace(replace(replace(replace(replace(replace(replace(new.`description`, 'ɗ', 'd'), 'Ɗ', 'D'), 'ƙ', 'k'), 'Ƙ', 'K'), 'ɓ', 'b'), 'Ɓ', 'B'), 'ƴ', 'y'), 'Ƴ', 'Y'), replace(replace(replace(replace(replace(replace(replace(replace(new.`cast`, 'ɗ', 'd'), 'Ɗ', 'D'), 'ƙ', 'k'), 'Ƙ', 'K'), 'ɓ', 'b'), 'Ɓ', 'B'), 'ƴ', 'y'), 'Ƴ', 'Y'));
END;
--> statement-breakpoint
CREATE TRIGGER `movies_fts_after_update` AFTER UPDATE OF `id`, `name`, `description`, `cast` ON `movies` BEGIN
  DELETE FROM `movies_fts` WHERE movie_id = old.`id`;
  INSERT INTO `movies_fts` (movie_id, name, description, cast_names) VALUES (new.`id`, replace(replace(replace(replace(replace(replace(replace(replace(new.`name`, 'ɗ', 'd'), 'Ɗ', 'D'), 'ƙ', 'k'), 'Ƙ', 'K'), 'ɓ', 'b'), 'Ɓ', 'B'), 'ƴ', 'y'), 'Ƴ', 'Y'), replace(replace(replace(replace(replace(replace(replace(replace(new.`description`, 'ɗ', 'd'), 'Ɗ', 'D'), 'ƙ', 'k'), 'Ƙ', 'K'), 'ɓ', 'b'), 'Ɓ', 'B'), 'ƴ', 'y'), 'Ƴ', 'Y'), replace(replace(replace(replace(replace(replace(replace(replace(new.`cast`, 'ɗ', 'd'), 'Ɗ', 'D'), 'ƙ', 'k'), 'Ƙ', 'K'), 'ɓ', 'b'), 'Ɓ', 'B'), 'ƴ', 'y'), 'Ƴ', 'Y'));
END;
