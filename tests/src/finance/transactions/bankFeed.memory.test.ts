import { PortsMemory } from "@svc/adapters-memory"
import { bankFeedSuite } from "./BankFeedSuite.ts"

bankFeedSuite("memory", PortsMemory)
