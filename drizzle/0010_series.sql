CREATE TABLE `seasons` (
	`id` text PRIMARY KEY NOT NULL,
	`series_id` text NOT NULL,
	`number` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`series_id`) REFERENCES `series`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `seasons_series_number_unique` ON `seasons` (`series_id`,`number`);--> statement-breakpoint
CREATE TABLE `series` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`cast` text DEFAULT '' NOT NULL,
	`category_id` text NOT NULL,
	`provider_id` text NOT NULL,
	`poster_file` text,
	`approved` integer DEFAULT false NOT NULL,
	`featured` integer DEFAULT false NOT NULL,
	`access` text DEFAULT 'free' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`category_id`) REFERENCES `categories`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`provider_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `series_provider_idx` ON `series` (`provider_id`,`updated_at`);--> statement-breakpoint
CREATE INDEX `series_approved_idx` ON `series` (`approved`,`featured`);--> statement-breakpoint
ALTER TABLE `accounts` ADD `autoplay_on_data_saver` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `movies` ADD `season_id` text REFERENCES seasons(id);--> statement-breakpoint
ALTER TABLE `movies` ADD `episode_number` integer;--> statement-breakpoint
ALTER TABLE `movies` ADD `access_override` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `movies_catalogue_idx` ON `movies` (`status`,`approved`,`season_id`,`uploaded_at`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `movies_season_episode_unique` ON `movies` (`season_id`,`episode_number`);--> statement-breakpoint
ALTER TABLE `resumable_uploads` ADD `season_id` text;--> statement-breakpoint
ALTER TABLE `resumable_uploads` ADD `episode_number` integer;--> statement-breakpoint
-- Full-text search over series (title, description, cast), as movies_fts does for titles (0003, 0005):
-- its own copy of the text with Hausa's hooked letters folded, kept in step by the triggers below.
CREATE VIRTUAL TABLE `series_fts` USING fts5(series_id UNINDEXED, name, description, cast_names, tokenize = "unicode61 remove_diacritics 2", prefix = '2 3');
--> statement-breakpoint
CREATE TRIGGER `series_fts_after_insert` AFTER INSERT ON `series` BEGIN
  INSERT INTO `series_fts` (series_id, name, description, cast_names) VALUES (new.`id`, replace(replace(replace(replace(replace(replace(replace(replace(new.`name`, 'ɗ', 'd'), 'Ɗ', 'D'), 'ƙ', 'k'), 'Ƙ', 'K'), 'ɓ', 'b'), 'Ɓ', 'B'), 'ƴ', 'y'), 'Ƴ', 'Y'), replace(replace(replace(replace(replace(replace(replace(replace(new.`description`, 'ɗ', 'd'), 'Ɗ', 'D'), 'ƙ', 'k'), 'Ƙ', 'K'), 'ɓ', 'b'), 'Ɓ', 'B'), 'ƴ', 'y'), 'Ƴ', 'Y'), replace(replace(replace(replace(replace(replace(replace(replace(new.`cast`, 'ɗ', 'd'), 'Ɗ', 'D'), 'ƙ', 'k'), 'Ƙ', 'K'), 'ɓ', 'b'), 'Ɓ', 'B'), 'ƴ', 'y'), 'Ƴ', 'Y'));
END;
--> statement-breakpoint
CREATE TRIGGER `series_fts_after_update` AFTER UPDATE OF `id`, `name`, `description`, `cast` ON `series` BEGIN
  DELETE FROM `series_fts` WHERE series_id = old.`id`;
  INSERT INTO `series_fts` (series_id, name, description, cast_names) VALUES (new.`id`, replace(replace(replace(replace(replace(replace(replace(replace(new.`name`, 'ɗ', 'd'), 'Ɗ', 'D'), 'ƙ', 'k'), 'Ƙ', 'K'), 'ɓ', 'b'), 'Ɓ', 'B'), 'ƴ', 'y'), 'Ƴ', 'Y'), replace(replace(replace(replace(replace(replace(replace(replace(new.`description`, 'ɗ', 'd'), 'Ɗ', 'D'), 'ƙ', 'k'), 'Ƙ', 'K'), 'ɓ', 'b'), 'Ɓ', 'B'), 'ƴ', 'y'), 'Ƴ', 'Y'), replace(replace(replace(replace(replace(replace(replace(replace(new.`cast`, 'ɗ', 'd'), 'Ɗ', 'D'), 'ƙ', 'k'), 'Ƙ', 'K'), 'ɓ', 'b'), 'Ɓ', 'B'), 'ƴ', 'y'), 'Ƴ', 'Y'));
END;
--> statement-breakpoint
CREATE TRIGGER `series_fts_after_delete` AFTER DELETE ON `series` BEGIN
  DELETE FROM `series_fts` WHERE series_id = old.`id`;
END;
