import { PortsMemory } from "@svc/domain/memory"
import { ledgerContract } from "./LedgerContract.ts"

ledgerContract("in-memory", PortsMemory)
