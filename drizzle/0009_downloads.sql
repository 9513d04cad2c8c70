CREATE TABLE `download_licences` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`movie_id` text NOT NULL,
	`rung` integer NOT NULL,
	`device_id` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`expires_at` integer NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`movie_id`) REFERENCES `movies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `download_licences_account_idx` ON `download_licences` (`account_id`,`deleted_at`,`expires_at`);--> statement-breakpoint
ALTER TABLE `plans` ADD `downloads_allowed` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `plans` ADD `max_downloads` integer DEFAULT 5 NOT NULL;--> statement-breakpoint
ALTER TABLE `plans` ADD `download_days` integer DEFAULT 7 NOT NULL;--> statement-breakpoint
ALTER TABLE `plans` ADD `download_play_hours` integer DEFAULT 48 NOT NULL;