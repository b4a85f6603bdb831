import { formatBytes, formatSeconds, type SectionResult } from './bench-results.js'

const palette = ['#4c78a8', '#f58518', '#54a24b', '#b279a2', '#e45756', '#72b7b2']

function escapeXml(text: string): string {
  return text.replace(/[&<>"]/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[char]!)
}

/**
 * A horizontal bar chart of one section: timing on the left, peak memory on the right,
 * one bar per point for each variant, clickwire's labels in bold. Plain SVG, no library.
 */
export function renderSectionSvg(section: SectionResult): string {
  const labelWidth = 330
  const panelWidth = 330
  const gap = 90
  const barHeight = 11
  const rowHeight = section.points.length * barHeight + 10
  const top = 64
  const width = labelWidth + 2 * panelWidth + gap + 40
  const height = top + section.variants.length * rowHeight + 20
  const panels = [
    {
      title: 'time (s)',
      x: labelWidth,
      value: (variantIndex: number, pointId: string) =>
        section.variants[variantIndex]!.cells[pointId]?.medianMs,
      format: formatSeconds,
    },
    {
      title: 'peak RSS',
      x: labelWidth + panelWidth + gap,
      value: (variantIndex: number, pointId: string) => {
        const cell = section.variants[variantIndex]!.cells[pointId]
        return cell?.medianMs === undefined ? undefined : cell.medianRssBytes
      },
      format: formatBytes,
    },
  ]
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="11">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="10" y="20" font-size="15" font-weight="bold">${escapeXml(section.title)}</text>`,
  ]
  section.points.forEach((point, index) => {
    const x = 10 + index * 90
    out.push(
      `<rect x="${x}" y="32" width="10" height="10" fill="${palette[index % palette.length]}"/>`,
      `<text x="${x + 14}" y="41">${escapeXml(point.label)}</text>`,
    )
  })
  for (const panel of panels) {
    let max = 0
    section.variants.forEach((_, variantIndex) => {
      for (const point of section.points) max = Math.max(max, panel.value(variantIndex, point.id) ?? 0)
    })
    out.push(`<text x="${panel.x}" y="${top - 6}" font-weight="bold">${panel.title}</text>`)
    out.push(`<line x1="${panel.x}" y1="${top}" x2="${panel.x}" y2="${height - 20}" stroke="#999"/>`)
    section.variants.forEach((_, variantIndex) => {
      const y = top + variantIndex * rowHeight + 5
      section.points.forEach((point, pointIndex) => {
        const value = panel.value(variantIndex, point.id)
        const barY = y + pointIndex * barHeight
        if (value === undefined) {
          out.push(`<text x="${panel.x + 4}" y="${barY + 9}" fill="#888">n/a</text>`)
          return
        }
        const barWidth = max > 0 ? Math.max(1, (value / max) * (panelWidth - 60)) : 1
        out.push(
          `<rect x="${panel.x}" y="${barY}" width="${barWidth.toFixed(1)}" height="${barHeight - 2}" fill="${palette[pointIndex % palette.length]}"/>`,
          `<text x="${(panel.x + barWidth + 4).toFixed(1)}" y="${barY + 8}" font-size="9">${escapeXml(panel.format(value))}</text>`,
        )
      })
    })
  }
  section.variants.forEach((variant, variantIndex) => {
    const y = top + variantIndex * rowHeight + 5 + (section.points.length * barHeight) / 2 + 3
    out.push(
      `<text x="${labelWidth - 8}" y="${y}" text-anchor="end"${variant.ours ? ' font-weight="bold"' : ''}>${escapeXml(variant.label)}</text>`,
    )
  })
  out.push('</svg>')
  return `${out.join('\n')}\n`
}
