ALTER TABLE `watch_events` ADD `hidden_at` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `notifications_once_unique` ON `notifications` (`account_id`,`kind`,`movie_id`);--> statement-breakpoint
CREATE INDEX `saved_movies_account_idx` ON `saved_movies` (`account_id`,`list`,`created_at`);--> statement-breakpoint
-- Full-text search over titles: words of the name, description and cast, accents and case folded.
-- A table of its own (not external content: movies has no INTEGER PRIMARY KEY, and VACUUM may renumber
-- implicit rowids), kept in step with movies by the triggers below. Only text edits fire the update
-- trigger, never the view counter.
CREATE VIRTUAL TABLE `movies_fts` USING fts5(movie_id UNINDEXED, name, description, cast_names, tokenize = "unicode61 remove_diacritics 2", prefix = '2 3');
--> statement-breakpoint
INSERT INTO `movies_fts` (movie_id, name, description, cast_names) SELECT `id`, `name`, `description`, `cast` FROM `movies`;
--> statement-breakpoint
CREATE TRIGGER `movies_fts_after_insert` AFTER INSERT ON `movies` BEGIN
  INSERT INTO `movies_fts` (movie_id, name, description, cast_names) VALUES (new.`id`, new.`name`, new.`description`, new.`cast`);
END;
--> statement-breakpoint
CREATE TRIGGER `movies_fts_after_update` AFTER UPDATE OF `id`, `name`, `description`, `cast` ON `movies` BEGIN
  DELETE FROM `movies_fts` WHERE movie_id = old.`id`;
  INSERT INTO `movies_fts` (movie_id, name, description, cast_names) VALUES (new.`id`, new.`name`, new.`description`, new.`cast`);
END;
--> statement-breakpoint
CREATE TRIGGER `movies_fts_after_delete` AFTER DELETE ON `movies` BEGIN
  DELETE FROM `movies_fts` WHERE movie_id = old.`id`;
END;
