import { PortsMemory } from "@svc/adapters-memory"
import { transactionsHttpSuite } from "./TransactionsHttpSuite.ts"

transactionsHttpSuite("memory", PortsMemory)
