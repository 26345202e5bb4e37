import { PortsMemory } from "@svc/adapters-memory"
import { ledgerContract } from "./LedgerContract.ts"

ledgerContract("in-memory", PortsMemory)
