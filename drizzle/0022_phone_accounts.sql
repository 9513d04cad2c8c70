-- Hand-edited: accounts made before have no verified number, no SMS notices and no stored language.
-- The accounts table is rebuilt (email may now be empty); the migration runs with foreign keys off
-- (migrateDatabase), so dropping the old table deletes nothing that points at it.
CREATE TABLE `phone_codes` (
	`id` text PRIMARY KEY NOT NULL,
	`phone` text NOT NULL,
	`purpose` text NOT NULL,
	`account_id` text,
	`code_hash` text NOT NULL,
	`pending` text,
	`tries` integer DEFAULT 0 NOT NULL,
	`redirect_to` text,
	`network` text NOT NULL,
	`sent_at` integer,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `phone_codes_phone_idx` ON `phone_codes` (`phone`,`created_at`);--> statement-breakpoint
CREATE INDEX `phone_codes_network_idx` ON `phone_codes` (`network`,`created_at`);--> statement-breakpoint
CREATE TABLE `sms_messages` (
	`id` text PRIMARY KEY NOT NULL,
	`to` text NOT NULL,
	`kind` text NOT NULL,
	`account_id` text,
	`notification_id` text,
	`network` text,
	`provider` text NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`error` text,
	`cost_minor` integer DEFAULT 0 NOT NULL,
	`provider_message_id` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`notification_id`) REFERENCES `notifications`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `sms_messages_to_idx` ON `sms_messages` (`to`,`created_at`);--> statement-breakpoint
CREATE INDEX `sms_messages_network_idx` ON `sms_messages` (`network`,`created_at`);--> statement-breakpoint
CREATE INDEX `sms_messages_created_idx` ON `sms_messages` (`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `sms_messages_notification_unique` ON `sms_messages` (`notification_id`);--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`email` text,
	`phone_number` text NOT NULL,
	`verified_phone` text,
	`sms_notices` integer DEFAULT false NOT NULL,
	`language` text,
	`password_hash` text NOT NULL,
	`role` text DEFAULT 'viewer' NOT NULL,
	`provider_name` text,
	`provider_status` text,
	`blocked` integer DEFAULT false NOT NULL,
	`data_saver` integer,
	`autoplay_on_data_saver` integer DEFAULT false NOT NULL,
	`token_version` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
INSERT INTO `__new_accounts`("id", "name", "email", "phone_number", "verified_phone", "sms_notices", "language", "password_hash", "role", "provider_name", "provider_status", "blocked", "data_saver", "autoplay_on_data_saver", "token_version", "created_at", "updated_at") SELECT "id", "name", "email", "phone_number", NULL, 0, NULL, "password_hash", "role", "provider_name", "provider_status", "blocked", "data_saver", "autoplay_on_data_saver", "token_version", "created_at", "updated_at" FROM `accounts`;--> statement-breakpoint
DROP TABLE `accounts`;--> statement-breakpoint
ALTER TABLE `__new_accounts` RENAME TO `accounts`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `accounts_email_unique` ON `accounts` (`email`);--> statement-breakpoint
CREATE UNIQUE INDEX `accounts_verified_phone_unique` ON `accounts` (`verified_phone`);--> statement-breakpoint
CREATE INDEX `accounts_role_created_idx` ON `accounts` (`role`,`created_at`);