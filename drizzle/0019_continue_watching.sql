CREATE TABLE `continue_watching_dismissals` (
	`account_id` text NOT NULL,
	`movie_id` text NOT NULL,
	`dismissed_at` integer NOT NULL,
	PRIMARY KEY(`account_id`, `movie_id`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`movie_id`) REFERENCES `movies`(`id`) ON UPDATE no action ON DELETE cascade
);
