import { PortsMemory } from "@svc/adapters-memory"
import { inboxHttpSuite } from "./InboxHttpSuite.ts"

inboxHttpSuite("memory", PortsMemory)
