import { PortsMemory } from "@svc/adapters-memory"
import { bankAccountsHttpSuite } from "./BankAccountsHttpSuite.ts"

bankAccountsHttpSuite("memory", PortsMemory)
