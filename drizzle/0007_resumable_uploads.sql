CREATE TABLE `resumable_uploads` (
	`id` text PRIMARY KEY NOT NULL,
	`provider_id` text NOT NULL,
	`movie_id` text NOT NULL,
	`filename` text NOT NULL,
	`size_bytes` integer NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`cast` text DEFAULT '' NOT NULL,
	`category_id` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`completed_at` integer,
	FOREIGN KEY (`provider_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `resumable_uploads_movie_id_unique` ON `resumable_uploads` (`movie_id`);--> statement-breakpoint
CREATE INDEX `resumable_uploads_provider_idx` ON `resumable_uploads` (`provider_id`,`completed_at`,`created_at`);