import { PortsMemory } from "@svc/adapters-memory"
import { bankAccountsContract } from "./BankAccountsContract.ts"

bankAccountsContract("memory", PortsMemory)
