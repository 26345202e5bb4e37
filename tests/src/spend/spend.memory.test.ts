import { PortsMemory } from "@svc/adapters-memory"
import { spendContract } from "./SpendContract.ts"
import { spendErrorsContract } from "./SpendErrorsContract.ts"

spendContract("in-memory", PortsMemory)
spendErrorsContract("in-memory", PortsMemory)
