import { PortsMemory } from "@svc/adapters-memory"
import { payoutWebhooksSuite } from "./PayoutWebhooksSuite.ts"

payoutWebhooksSuite("memory", PortsMemory)
