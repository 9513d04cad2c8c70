-- Hand-edited. Profiles: each account's first profile takes the account's own id, name, language and
-- data-saver choice, so every viewing, list entry, dismissal and download made before is that profile's.
-- saved_movies and continue_watching_dismissals are rebuilt (their keys gain the profile); the migration
-- runs with foreign keys off (migrateDatabase), so dropping the old tables deletes nothing.
CREATE TABLE `profiles` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`name` text NOT NULL,
	`avatar` text DEFAULT 'sun' NOT NULL,
	`language` text,
	`data_saver` integer,
	`children` integer DEFAULT false NOT NULL,
	`locked` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `profiles_account_idx` ON `profiles` (`account_id`,`created_at`);--> statement-breakpoint
INSERT INTO `profiles` (`id`, `account_id`, `name`, `language`, `data_saver`, `created_at`)
  SELECT `id`, `id`, `name`, `language`, `data_saver`, `created_at` FROM `accounts`;--> statement-breakpoint
ALTER TABLE `accounts` ADD `profile_pin_hash` text;--> statement-breakpoint
ALTER TABLE `accounts` ADD `pin_failures` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `accounts` ADD `pin_locked_until` integer;--> statement-breakpoint
ALTER TABLE `sessions` ADD `profile_id` text REFERENCES profiles(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `movies` ADD `age_rating` text;--> statement-breakpoint
ALTER TABLE `series` ADD `age_rating` text;--> statement-breakpoint
ALTER TABLE `resumable_uploads` ADD `age_rating` text;--> statement-breakpoint
ALTER TABLE `comments` ADD `profile_id` text REFERENCES profiles(id) ON DELETE set null;--> statement-breakpoint
UPDATE `comments` SET `profile_id` = `account_id`;--> statement-breakpoint
ALTER TABLE `ratings` ADD `profile_id` text REFERENCES profiles(id) ON DELETE set null;--> statement-breakpoint
UPDATE `ratings` SET `profile_id` = `account_id`;--> statement-breakpoint
ALTER TABLE `watch_events` ADD `profile_id` text REFERENCES profiles(id) ON DELETE set null;--> statement-breakpoint
UPDATE `watch_events` SET `profile_id` = `account_id`;--> statement-breakpoint
CREATE INDEX `watch_events_profile_idx` ON `watch_events` (`profile_id`,`updated_at`);--> statement-breakpoint
CREATE INDEX `watch_events_profile_movie_idx` ON `watch_events` (`profile_id`,`movie_id`,`updated_at`);--> statement-breakpoint
ALTER TABLE `download_licences` ADD `profile_id` text REFERENCES profiles(id) ON DELETE set null;--> statement-breakpoint
UPDATE `download_licences` SET `profile_id` = `account_id`;--> statement-breakpoint
CREATE INDEX `download_licences_profile_idx` ON `download_licences` (`profile_id`,`deleted_at`,`expires_at`);--> statement-breakpoint
CREATE TABLE `__new_saved_movies` (
	`account_id` text NOT NULL,
	`profile_id` text NOT NULL,
	`movie_id` text NOT NULL,
	`list` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	PRIMARY KEY(`profile_id`, `list`, `movie_id`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`profile_id`) REFERENCES `profiles`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`movie_id`) REFERENCES `movies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_saved_movies` (`account_id`, `profile_id`, `movie_id`, `list`, `created_at`)
  SELECT `account_id`, `account_id`, `movie_id`, `list`, `created_at` FROM `saved_movies`;--> statement-breakpoint
DROP TABLE `saved_movies`;--> statement-breakpoint
ALTER TABLE `__new_saved_movies` RENAME TO `saved_movies`;--> statement-breakpoint
CREATE INDEX `saved_movies_movie_idx` ON `saved_movies` (`movie_id`,`list`);--> statement-breakpoint
CREATE INDEX `saved_movies_profile_idx` ON `saved_movies` (`profile_id`,`list`,`created_at`);--> statement-breakpoint
CREATE TABLE `__new_continue_watching_dismissals` (
	`account_id` text NOT NULL,
	`profile_id` text NOT NULL,
	`movie_id` text NOT NULL,
	`dismissed_at` integer NOT NULL,
	PRIMARY KEY(`profile_id`, `movie_id`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`profile_id`) REFERENCES `profiles`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`movie_id`) REFERENCES `movies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_continue_watching_dismissals` (`account_id`, `profile_id`, `movie_id`, `dismissed_at`)
  SELECT `account_id`, `account_id`, `movie_id`, `dismissed_at` FROM `continue_watching_dismissals`;--> statement-breakpoint
DROP TABLE `continue_watching_dismissals`;--> statement-breakpoint
ALTER TABLE `__new_continue_watching_dismissals` RENAME TO `continue_watching_dismissals`;--> statement-breakpoint
-- A title's rating decides whether children's profiles list it: the kept lists start again when it changes.
CREATE TRIGGER `catalogue_version_movie_rating` AFTER UPDATE OF `age_rating` ON `movies` BEGIN
  UPDATE `catalogue_version` SET `version` = `version` + 1 WHERE `id` = 1;
END;
--> statement-breakpoint
-- Every account has a first profile, with the account's id, from the moment it is made (whoever makes it).
CREATE TRIGGER `profiles_first_of_account` AFTER INSERT ON `accounts` BEGIN
  INSERT INTO `profiles` (`id`, `account_id`, `name`, `language`) VALUES (NEW.`id`, NEW.`id`, NEW.`name`, NEW.`language`);
END;
--> statement-breakpoint
-- A viewing written without a profile is its account's first profile's (an account's own id), when that profile exists.
CREATE TRIGGER `watch_events_first_profile` AFTER INSERT ON `watch_events` WHEN NEW.`profile_id` IS NULL BEGIN
  UPDATE `watch_events` SET `profile_id` = NEW.`account_id`
   WHERE `id` = NEW.`id` AND EXISTS (SELECT 1 FROM `profiles` WHERE `id` = NEW.`account_id`);
END;
