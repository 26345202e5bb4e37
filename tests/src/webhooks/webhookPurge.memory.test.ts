import { PortsMemory } from "@svc/adapters-memory"
import { webhookPurgeContract } from "./WebhookPurgeContract.ts"

webhookPurgeContract("in-memory", PortsMemory)
