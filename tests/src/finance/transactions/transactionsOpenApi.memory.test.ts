import { PortsMemory } from "@svc/adapters-memory"
import { transactionsOpenApiSuite } from "./TransactionsOpenApiSuite.ts"

transactionsOpenApiSuite("memory", PortsMemory)
