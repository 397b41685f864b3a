# One-command install of the on-site agent on Windows (PowerShell as Administrator):
#   powershell -ExecutionPolicy Bypass -File apps\agent\install\install-windows.ps1 -Code KOD -Server https://panel.example.com
# Needs Node.js 20+ and this repository (or its release copy) with `npm ci` done. Nothing is downloaded.
#
# Why a scheduled task and not `sc.exe create`: a service registered with sc.exe must answer the Service
# Control Manager, which node.exe does not, so Windows stops it after 30 s. The task below runs as
# SYSTEM at start-up, without a time limit, and is restarted by Windows if the process ends.
param(
  [Parameter(Mandatory = $true)][string]$Code,
  [Parameter(Mandatory = $true)][string]$Server,
  [string]$AgentHome = "$env:ProgramData\EntegrasyonAgent"
)
$ErrorActionPreference = "Stop"
$node = (Get-Command node.exe).Source
$major = [int]((& $node -p "process.versions.node").Split(".")[0])
if ($major -lt 20) { throw "Node.js 20 or newer is needed" }
$cli = Join-Path $PSScriptRoot "..\bin\entegrasyon-agent.js" | Resolve-Path

New-Item -ItemType Directory -Force -Path $AgentHome | Out-Null
# Only SYSTEM and Administrators may read the credential file.
icacls $AgentHome /inheritance:r /grant:r "SYSTEM:(OI)(CI)F" "Administrators:(OI)(CI)F" | Out-Null

& $node $cli pair $Code --server $Server --home $AgentHome
if ($LASTEXITCODE -ne 0) { throw "pairing failed" }

$name = "EntegrasyonAgent"
Unregister-ScheduledTask -TaskName $name -Confirm:$false -ErrorAction SilentlyContinue
$action = New-ScheduledTaskAction -Execute $node -Argument "`"$cli`" run --home `"$AgentHome`""
$trigger = New-ScheduledTaskTrigger -AtStartup
$principal = New-ScheduledTaskPrincipal -UserId "SYSTEM" -LogonType ServiceAccount -RunLevel Highest
$settings = New-ScheduledTaskSettingsSet -ExecutionTimeLimit ([TimeSpan]::Zero) -RestartCount 999 `
  -RestartInterval (New-TimeSpan -Minutes 1) -StartWhenAvailable -AllowStartIfOnBatteries -DontStopIfGoingOnBatteries
Register-ScheduledTask -TaskName $name -Action $action -Trigger $trigger -Principal $principal -Settings $settings | Out-Null
Start-ScheduledTask -TaskName $name
Write-Host "entegrasyon-agent is running (task $name). Status: node `"$cli`" status --home `"$AgentHome`""
