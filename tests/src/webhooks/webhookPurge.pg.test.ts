import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { webhookPurgeContract } from "./WebhookPurgeContract.ts"

webhookPurgeContract("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
