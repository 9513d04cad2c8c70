CREATE TABLE `sign_in_failures` (
	`account_key` text PRIMARY KEY NOT NULL,
	`failures` integer DEFAULT 0 NOT NULL,
	`last_try_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `jobs` ADD `run_after` integer;--> statement-breakpoint
ALTER TABLE `jobs` ADD `tool_pid` integer;