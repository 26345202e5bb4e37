import { PortsMemory } from "@svc/adapters-memory"
import { transferWebhooksSuite } from "./TransferWebhooksSuite.ts"

transferWebhooksSuite("memory", PortsMemory)
