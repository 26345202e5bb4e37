import { PortsMemory } from "@svc/adapters-memory"
import { invoicesHttpSuite } from "./InvoicesHttpSuite.ts"

invoicesHttpSuite("memory", PortsMemory)
