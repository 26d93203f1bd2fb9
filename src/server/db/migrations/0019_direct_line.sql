CREATE TABLE "conversations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"access_code_id" integer NOT NULL,
	"waiting_since" timestamp with time zone,
	"due_at" timestamp with time zone,
	"settled" text,
	"last_message_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "conversations_access_code_id_unique" UNIQUE("access_code_id"),
	CONSTRAINT "conversations_settled_check" CHECK (settled IS NULL OR settled IN ('answered', 'no_reply'))
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"conversation_id" uuid NOT NULL,
	"sequence" integer NOT NULL,
	"sender" text NOT NULL,
	"kind" text DEFAULT 'message' NOT NULL,
	"member_key" text NOT NULL,
	"operator_key" text NOT NULL,
	"iv" text NOT NULL,
	"ciphertext" text NOT NULL,
	"task_due" timestamp with time zone,
	"task_done_at" timestamp with time zone,
	"answer_to" integer,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "messages_conversation_id_sequence_pk" PRIMARY KEY("conversation_id","sequence"),
	CONSTRAINT "messages_sender_check" CHECK (sender IN ('member', 'operator')),
	CONSTRAINT "messages_kind_check" CHECK (kind IN ('message', 'task')),
	CONSTRAINT "messages_sequence_check" CHECK ("messages"."sequence" >= 1)
);
--> statement-breakpoint
CREATE TABLE "messaging_keys" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"public_key" text NOT NULL,
	"salt" text NOT NULL,
	"iterations" integer NOT NULL,
	"by_passphrase" text NOT NULL,
	"by_recovery" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"recovery_kept" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "messaging_keys_one_row" CHECK ("messaging_keys"."id" = 1),
	CONSTRAINT "messaging_keys_iterations_check" CHECK ("messaging_keys"."iterations" >= 600000)
);
--> statement-breakpoint
CREATE TABLE "messaging_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"architect_hours" integer DEFAULT 24 NOT NULL,
	"mastermind_hours" integer DEFAULT 12 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "messaging_settings_one_row" CHECK ("messaging_settings"."id" = 1),
	CONSTRAINT "messaging_settings_hours_check" CHECK ("messaging_settings"."architect_hours" BETWEEN 1 AND 720 AND "messaging_settings"."mastermind_hours" BETWEEN 1 AND 720)
);
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_kind_check";--> statement-breakpoint
ALTER TABLE "notebooks" ADD COLUMN "messaging_public" text;--> statement-breakpoint
ALTER TABLE "notebooks" ADD COLUMN "messaging_private" text;--> statement-breakpoint
ALTER TABLE "notebooks" ADD COLUMN "operator_pin_iv" text;--> statement-breakpoint
ALTER TABLE "notebooks" ADD COLUMN "operator_pin" text;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_access_code_id_access_codes_id_fk" FOREIGN KEY ("access_code_id") REFERENCES "public"."access_codes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "conversations_due_idx" ON "conversations" USING btree ("due_at");--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_kind_check" CHECK (kind IN ('lead', 'test', 'message'));