import { PortsMemory } from "@svc/adapters-memory"
import { spendApprovalsContract } from "./SpendApprovalsContract.ts"

spendApprovalsContract("in-memory", PortsMemory)
